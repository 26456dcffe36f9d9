// The `npm install` step (scripts/build.js) finds its dependencies where npm put them. Installing
// the folder into a fresh app (`cd my-app && npm install /path/to/bindings/node`) links it and
// hoists node-addon-api and node-api-headers into my-app/node_modules, then runs the script in
// the folder with INIT_CWD=my-app: it failed with "Cannot find module 'node-addon-api'" unless
// `npm install` had been run in the folder first (issue 21). The layout is made here by hand,
// without npm or the network, and the script runs with --dry-run (nothing is built).
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');

const binding = path.join(__dirname, '../../bindings/node');

function layout() {
  const top = fs.mkdtempSync(path.join(os.tmpdir(), 'webnn-install-'));
  const pkg = path.join(top, 'webnn-cpp');  // the folder installed, without node_modules
  fs.mkdirSync(path.join(pkg, 'scripts'), { recursive: true });
  fs.copyFileSync(path.join(binding, 'scripts/build.js'), path.join(pkg, 'scripts/build.js'));
  fs.copyFileSync(path.join(binding, 'package.json'), path.join(pkg, 'package.json'));
  const app = path.join(top, 'my-app');
  fs.mkdirSync(path.join(app, 'node_modules'), { recursive: true });
  fs.writeFileSync(path.join(app, 'package.json'), '{"name": "my-app", "version": "1.0.0"}');
  for (const name of ['node-addon-api', 'node-api-headers']) {
    fs.symlinkSync(path.join(binding, 'node_modules', name), path.join(app, 'node_modules', name), 'dir');
  }
  fs.symlinkSync(pkg, path.join(app, 'node_modules/webnn-cpp'), 'dir');
  return { top, pkg, app };
}

function runBuildScript(pkg, env) {
  return spawnSync(process.execPath, [path.join(pkg, 'scripts/build.js'), '--dry-run'],
    { cwd: pkg, encoding: 'utf8', env: { ...process.env, INIT_CWD: '', ...env } });
}

test('the install script finds the dependencies npm hoisted into the installing app',
  { skip: !fs.existsSync(path.join(binding, 'node_modules/node-addon-api')) && 'npm ci not run in bindings/node' },
  () => {
    const { top, pkg, app } = layout();
    try {
      const result = runBuildScript(pkg, { INIT_CWD: app });
      assert.strictEqual(result.status, 0, result.stderr);
      const includeDir = /-DNODE_ADDON_API_INCLUDE_DIR=(\S+)/.exec(result.stdout);
      assert.ok(includeDir, result.stdout);
      assert.ok(path.isAbsolute(includeDir[1]), includeDir[1]);
      assert.ok(fs.existsSync(path.join(includeDir[1], 'napi.h')), includeDir[1]);
      // Without INIT_CWD (not under npm) the folder alone has nothing: the error names the module.
      const alone = runBuildScript(pkg, {});
      assert.notStrictEqual(alone.status, 0);
      assert.match(alone.stderr, /node-addon-api/);
    } finally {
      fs.rmSync(top, { recursive: true, force: true });
    }
  });
