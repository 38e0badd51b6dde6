// Times one ONNX model in ONNX Runtime's CPU library (the npm package
// onnxruntime-node), for bench/run.py.
//   node ort_bench.js MODEL SHAPE THREADS ITERATIONS
// SHAPE is the first input's shape, e.g. 8x3x224x224. Prints one JSON
// object: min_ms, median_ms, iterations. Every call goes through node, which
// adds some 25 us per call (measured on an empty graph): negligible beside
// the models here except the smallest, where run.py says so.
const ort = require('onnxruntime-node');

async function main() {
  const [model, shapeText, threads, iterationsText] = process.argv.slice(2);
  const shape = shapeText.split('x').map(Number);
  const session = await ort.InferenceSession.create(model, {
    intraOpNumThreads: Number(threads),
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
    executionMode: 'sequential',
  });
  const count = shape.reduce((a, b) => a * b, 1);
  // The same kind of input as tgc bench makes up: uniform in [-1, 1).
  const data = Float32Array.from({length: count}, () => Math.random() * 2 - 1);
  const feeds = {};
  feeds[session.inputNames[0]] = new ort.Tensor('float32', data, shape);
  const start = process.hrtime.bigint();
  let warm = 0;
  while (warm < 3 || Number(process.hrtime.bigint() - start) < 1e8) {
    await session.run(feeds);
    ++warm;
  }
  const iterations = Number(iterationsText);
  const times = [];
  for (let i = 0; i < iterations; ++i) {
    const t = process.hrtime.bigint();
    await session.run(feeds);
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  times.sort((a, b) => a - b);
  const n = times.length;
  const median = n % 2 ? times[(n - 1) / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
  console.log(JSON.stringify({min_ms: times[0], median_ms: median, iterations: n}));
}

main().catch((error) => {
  console.error(error.message || error);
  process.exit(1);
});
