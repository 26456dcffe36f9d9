#!/usr/bin/env node
// `npm pack` step: copies the C++ library's sources (CMakeLists.txt, cmake/, include/, src/) from
// the repository into webnn-src/, so that the tarball builds on a machine without the repository.
// `--clean` (postpack) removes the copy again, so that builds in the repository use its sources.
'use strict';
const fs = require('fs');
const path = require('path');

const here = path.resolve(__dirname, '..');
const repo = path.resolve(here, '..', '..');
const target = path.join(here, 'webnn-src');
if (process.argv[2] === '--clean') {
  if (fs.existsSync(path.join(repo, 'src'))) fs.rmSync(target, { recursive: true, force: true });
  process.exit(0);
}
if (!fs.existsSync(path.join(repo, 'src')) || !fs.existsSync(path.join(repo, 'include', 'webnn'))) {
  if (fs.existsSync(path.join(target, 'CMakeLists.txt'))) process.exit(0);  // already bundled
  throw new Error(`bundle-sources: no webnn-cpp repository at ${repo}`);
}
fs.rmSync(target, { recursive: true, force: true });
fs.mkdirSync(target);
for (const entry of ['CMakeLists.txt', 'cmake', 'include', 'src']) {
  fs.cpSync(path.join(repo, entry), path.join(target, entry), { recursive: true });
}
console.log(`bundle-sources: copied the library sources into ${target}`);
