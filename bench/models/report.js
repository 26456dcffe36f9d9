// The table of the model benchmark (bench/models/run_models_bench.sh): reads one JSON object per
// model ({model, input, webnn: run-json or [run-json per round], ort: likewise}), takes the median
// of each figure over the rounds (the largest rel L2), prints webnn's figures beside ONNX
// Runtime's with the ratios against issue 9's targets, then one line: bench-json: {...}.
// Exits 1 when an output differs from ONNX Runtime's by more than the tolerance (rel L2 1e-4;
// 1e-2 with --precision float16, the models converted by to_float16.py; 0.14 with --precision int8,
// the QDQ models of to_qdq.py).
//   node report.js RESULTS.jsonl --cpu NAME --cores N --threads N --webnn-threads TEXT
//        --iterations N --ort-iterations N --quick 0|1 --encoder-layers N [--precision float16]
//        [--load quiet|busy|webnn --busy N]
// Under load (issue 17: --busy N spinning processes, or a second webnn process beside each side)
// the latency target is 1.0 x ONNX Runtime under the same load; quiet, 0.8 x.
'use strict';
const fs = require('fs');

const TARGETS = { latency: 0.8, first: 0.5, rss: 1.0 };

const args = process.argv.slice(2);
const file = args.shift();
const meta = {};
while (args.length) meta[args.shift().replace(/^--/, '').replace(/-/g, '_')] = args.shift();
const precision = meta.precision || 'float32';
// int8 QDQ models: twice ONNX Runtime's own spread on the int8 det (issue 23).
const TOLERANCE = { float16: 1e-2, int8: 0.14 }[precision] || 1e-4;
const load = meta.load || 'quiet';
if (load !== 'quiet') TARGETS.latency = 1.0;
const conditions = load === 'busy' ? `BUSY: ${meta.busy} spinning processes on the cores during each run`
  : load === 'webnn' ? 'BESIDE a second webnn process running the same model' : 'quiet';

const rows = fs.readFileSync(file, 'utf8').trim().split('\n').filter(l => l).map(l => JSON.parse(l));
const mib = b => b / 1048576;
const verdict = (ratio, target) => (ratio <= target ? 'met' : 'MISSED');
let failed = false;
// One figure set from a side's rounds: each numeric field's median (the largest rel L2).
// Time to first result is summed per run before the median is taken.
const withFirstResult = x => ({ ...x, first_result_ms: 'session_ms' in x
  ? x.session_ms + x.first_run_ms : x.parse_ms + x.build_ms + x.load_ms + x.first_dispatch_ms });
const medianOf = given => {
  const runs = (Array.isArray(given) ? given : [given]).map(withFirstResult);
  const out = { ...runs[0] };
  for (const key of Object.keys(out)) {
    if (typeof out[key] !== 'number') continue;
    const values = runs.map(x => x[key]).sort((a, b) => a - b);
    out[key] = key === 'rel_l2' ? values[values.length - 1] : values[Math.floor(values.length / 2)];
  }
  out.rounds = runs.length;
  return out;
};
const models = rows.map(r => {
  const w = medianOf(r.webnn), o = medianOf(r.ort);
  const first = { webnn_ms: w.first_result_ms, ort_ms: o.first_result_ms };
  const m = {
    model: r.model, input: r.input, precision, backend: w.backend,
    latency: { webnn_ms: w.median_ms, ort_ms: o.median_ms, webnn_runs: w.dispatches, ort_runs: o.dispatches },
    first_result: first,
    peak_rss: { webnn_bytes: w.peak_rss_bytes, ort_bytes: o.peak_rss_bytes },
    weight_bytes: w.weight_bytes, rel_l2: o.rel_l2,
  };
  m.latency.ratio = m.latency.webnn_ms / m.latency.ort_ms;
  m.first_result.ratio = first.webnn_ms / first.ort_ms;
  m.peak_rss.ratio = m.peak_rss.webnn_bytes / m.peak_rss.ort_bytes;
  m.latency.met = m.latency.ratio <= TARGETS.latency;
  m.first_result.met = m.first_result.ratio <= TARGETS.first;
  m.peak_rss.met = m.peak_rss.ratio <= TARGETS.rss;
  m.outputs_agree = typeof o.rel_l2 === 'number' && o.rel_l2 <= TOLERANCE;
  failed = failed || !m.outputs_agree;
  return m;
});

const f = x => (x >= 10 ? x.toFixed(1) : x.toFixed(2));
const r = x => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
console.log(`${precision} models; CPU: ${meta.cpu} (${meta.cores} cores); ONNX Runtime ${rows.length ? (Array.isArray(rows[0].ort) ? rows[0].ort[0] : rows[0].ort).ort_version : '-'}, CPU EP, ` +
            `${meta.threads} intra-op threads; webnn threads: ${meta.webnn_threads}; backend ${models.length ? models[0].backend : '-'}; ` +
            `median over ${meta.rounds || 1} rounds (fresh processes, alternating order) of the median of ${meta.iterations} (webnn) / ${meta.ort_iterations} (ORT) steady-state runs after the first; conditions: ${conditions}${meta.quick === '1' ? '; QUICK sizes (smoke run, not the issue\'s models)' : ''}`);
console.log('latency = median steady-state run; first result = webnn import + build + load + first dispatch, ' +
            'ORT session create + first run; peak RSS = VmHWM of each whole process (ORT: node included)');
console.log('');
console.log(`| model | input | latency webnn ms | ORT ms | ratio (<= ${TARGETS.latency}) | first result webnn ms | ORT ms | ratio (<= 0.5) | peak RSS webnn MiB | ORT MiB | ratio (<= 1.0) | rel L2 vs ORT (<= ${TOLERANCE}) |`);
console.log('|---|---|---:|---:|---|---:|---:|---|---:|---:|---|---:|');
for (const m of models) {
  const l = m.latency, t = m.first_result, p = m.peak_rss;
  const l2 = typeof m.rel_l2 === 'number' ? `${m.rel_l2.toExponential(1)} ${m.outputs_agree ? 'ok' : 'DIFFERS'}` : `${m.rel_l2} DIFFERS`;
  console.log(`| ${m.model} | ${m.input} | ${f(l.webnn_ms)} | ${f(l.ort_ms)} | ${r(l.ratio)} ${verdict(l.ratio, TARGETS.latency)} ` +
              `| ${f(t.webnn_ms)} | ${f(t.ort_ms)} | ${r(t.ratio)} ${verdict(t.ratio, TARGETS.first)} ` +
              `| ${f(mib(p.webnn_bytes))} | ${f(mib(p.ort_bytes))} | ${r(p.ratio)} ${verdict(p.ratio, TARGETS.rss)} | ${l2} |`);
}
const summary = {
  precision, tolerance: TOLERANCE, load, busy: load === 'busy' ? Number(meta.busy) : 0, cpu: meta.cpu, cores: Number(meta.cores), threads: Number(meta.threads), webnn_threads: meta.webnn_threads,
  iterations: Number(meta.iterations), rounds: Number(meta.rounds || 1), ort_iterations: Number(meta.ort_iterations), quick: meta.quick === '1', encoder_layers: Number(meta.encoder_layers),
  targets: { latency_ratio: TARGETS.latency, first_result_ratio: TARGETS.first, peak_rss_ratio: TARGETS.rss },
  date: new Date().toISOString(), models,
};
console.log('');
console.log(`bench-json: ${JSON.stringify(summary)}`);
if (failed) {
  console.error(`run_models_bench: an output differs from ONNX Runtime's (rel L2 > ${TOLERANCE})`);
  process.exit(1);
}
