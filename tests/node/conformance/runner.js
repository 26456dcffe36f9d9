// The WPT conformance suite through the WebNN JS API: every case of every vector file, classic
// and (for cases with constants) hollow, with the known-failure list of the C++ runner
// (tests/conformance/known_failures/<backend>.txt). Same counting as `webnn conformance`: a case
// passes when every path passes; a listed case that fails is "known".
'use strict';
const fs = require('fs');
const path = require('path');
const { replayCase } = require('./replay');

function loadKnownFailures(file) {
  const known = new Map();
  if (!file) return known;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    const at = line.lastIndexOf('  #');
    if (at < 0) throw new Error(`${file}: no reason on line "${line}"`);
    known.set(line.slice(0, at).trim(), line.slice(at + 3).trim());
  }
  return known;
}

function loadCases(directory, ops) {
  const files = fs.readdirSync(directory).filter((f) => f.endsWith('.json') && f !== 'index.json').sort();
  const cases = [];
  for (const file of files) {
    const op = path.basename(file, '.json');
    if (ops && !ops.includes(op)) continue;
    const vectors = JSON.parse(fs.readFileSync(path.join(directory, file), 'utf8'));
    for (const c of vectors.cases) cases.push({ ...c, op, id: `${op}/${c.name}` });
  }
  return cases;
}

async function runConformance({ directory, knownFailures, ops, webnn, contextOptions, onCase }) {
  const known = loadKnownFailures(knownFailures);
  const context = await webnn.ml.createContext(contextOptions);
  const report = { backend: context.backend, passed: 0, failed: 0, known: 0, failures: [], nowPassing: [] };
  const seen = new Set();
  for (const testCase of loadCases(directory, ops)) {
    seen.add(testCase.id);
    const paths = ['classic'];
    if (Object.values(testCase.inputs).some((input) => input.constant)) paths.push('hollow');
    const failures = [];
    for (const p of paths) {
      const failure = await replayCase(context, testCase, p, webnn);
      if (failure) failures.push(`${p}: ${failure}`);
    }
    const reason = known.get(testCase.id);
    if (!failures.length) {
      report.passed++;
      if (reason) report.nowPassing.push(testCase.id);
    } else if (reason) {
      report.known++;
    } else {
      report.failed++;
      report.failures.push({ id: testCase.id, failures });
    }
    if (onCase) onCase(testCase, failures);
  }
  report.stale = ops ? [] : [...known.keys()].filter((id) => !seen.has(id));
  context.destroy();
  return report;
}

function summaryLine(report) {
  return `conformance: ${report.passed} passed, ${report.failed} failed, ${report.known} known`;
}

module.exports = { runConformance, summaryLine, loadCases };

// node runner.js DIRECTORY [--known-failures FILE] [--op NAME]... [--backend NAME] [--verbose]
if (require.main === module) {
  const args = process.argv.slice(2);
  const options = { directory: args.shift(), ops: null, contextOptions: {} };
  let verbose = false;
  while (args.length) {
    const flag = args.shift();
    if (flag === '--known-failures') options.knownFailures = args.shift();
    else if (flag === '--op') (options.ops ??= []).push(args.shift());
    else if (flag === '--backend') options.contextOptions.backend = args.shift();
    else if (flag === '--verbose') verbose = true;
    else throw new Error(`unknown option ${flag}`);
  }
  options.webnn = require(process.env.WEBNN_NODE_PACKAGE || path.join(__dirname, '../../../bindings/node'));
  if (verbose) options.onCase = (c, failures) => console.log(`${c.id} ... ${failures.length ? 'FAIL' : 'PASS'}${failures.map((f) => `\n    ${f}`).join('')}`);
  runConformance(options).then((report) => {
    for (const f of report.failures) console.log(`FAIL ${f.id}\n    ${f.failures.join('\n    ')}`);
    for (const id of report.nowPassing) console.log(`known failure now passing: ${id}`);
    for (const id of report.stale) console.log(`known-failure entry naming no case: ${id}`);
    console.log(`backend: ${report.backend}\n${summaryLine(report)}`);
    process.exit(report.failed || report.nowPassing.length || report.stale.length ? 1 : 0);
  }, (error) => { console.error(error); process.exit(2); });
}
