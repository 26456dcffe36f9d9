#!/usr/bin/env node
// `npm install` step: configures and builds the addon with CMake into build/, taking Node's
// headers from the installed Node (include/node next to the node binary) or from the
// node-api-headers package. Nothing is downloaded. Environment:
//   WEBNN_NODE_BUILD_TYPE  CMake build type (default Release)
//   WEBNN_NODE_JOBS        parallel compile jobs (default: the CPU count)
//   CMAKE_CXX_COMPILER_LAUNCHER, CXX  as CMake reads them (e.g. ccache)
// `node scripts/build.js --dry-run` prints the configure command and builds nothing.
'use strict';
const { spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const root = path.resolve(__dirname, '..');
const build = path.join(root, 'build');

// A dependency of this package: next to it, or where npm hoisted it (installing this folder as a
// linked dependency puts its dependencies in the installing project, INIT_CWD).
function dependency(name) {
  const paths = [root, process.env.INIT_CWD, process.cwd()].filter(Boolean);
  return require(require.resolve(name, { paths }));
}

function nodeApiIncludeDir() {
  const installed = path.resolve(path.dirname(process.execPath), '..', 'include', 'node');
  if (fs.existsSync(path.join(installed, 'node_api.h'))) return installed;
  return path.resolve(dependency('node-api-headers').include_dir);
}

function run(args) {
  console.log(`webnn-cpp: cmake ${args.join(' ')}`);
  const result = spawnSync('cmake', args, { stdio: 'inherit' });
  if (result.error) throw new Error(`cannot run cmake (${result.error.message}); install CMake >= 3.25`);
  if (result.status !== 0) process.exit(result.status || 1);
}

const buildType = process.env.WEBNN_NODE_BUILD_TYPE || 'Release';
const jobs = process.env.WEBNN_NODE_JOBS || String(os.cpus().length);
const configure = ['-S', root, '-B', build, `-DCMAKE_BUILD_TYPE=${buildType}`,
  `-DNODE_API_INCLUDE_DIR=${nodeApiIncludeDir()}`,
  // (node-addon-api's include_dir is relative to the working directory.)
  `-DNODE_ADDON_API_INCLUDE_DIR=${path.resolve(dependency('node-addon-api').include_dir)}`];
if (spawnSync('ninja', ['--version']).status === 0) configure.push('-G', 'Ninja');
if (process.env.CMAKE_CXX_COMPILER_LAUNCHER) {
  configure.push(`-DCMAKE_CXX_COMPILER_LAUNCHER=${process.env.CMAKE_CXX_COMPILER_LAUNCHER}`);
}
if (process.argv.includes('--dry-run')) {
  console.log(`webnn-cpp: cmake ${configure.join(' ')}`);
  process.exit(0);
}
if (!fs.existsSync(path.join(build, 'CMakeCache.txt'))) run(configure);
run(['--build', build, '--target', 'webnn_node', '-j', jobs]);
