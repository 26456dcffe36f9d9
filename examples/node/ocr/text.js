// Text from the recognizer (CTC decoding over PaddleOCR's dictionary) and PaddleOCR's character
// accuracy (normalized edit distance on code points, spaces ignored), as tools/ocr/ctc.cpp and
// accuracy.cpp.
'use strict';
const fs = require('fs');

// The dictionary file's lines, with the space class appended (PaddleOCR's use_space_char).
function readDictionary(file) {
  const lines = fs.readFileSync(file, 'utf8').split('\n').map((l) => l.replace(/\r$/, ''));
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  if (!lines.length) throw new Error(`${file}: the dictionary is empty`);
  return [...lines, ' '];
}

// The most probable class at each of `steps` steps, repeats collapsed, blanks (class 0) dropped;
// class i is dictionary[i - 1]. Returns { text, confidence } (the mean probability kept).
function decodeCtc(probabilities, steps, classes, dictionary) {
  let text = '';
  let previous = -1;
  let sum = 0;
  let kept = 0;
  for (let t = 0; t < steps; t++) {
    const row = probabilities.subarray(t * classes, (t + 1) * classes);
    let best = 0;
    for (let k = 1; k < classes; k++) if (row[k] > row[best]) best = k;
    if (best !== 0 && best !== previous && best - 1 < dictionary.length) {
      text += dictionary[best - 1];
      sum += row[best];
      kept++;
    }
    previous = best;
  }
  return { text, confidence: kept ? sum / kept : 0 };
}

function editDistance(a, b) {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length];
}

// { edits, characters, accuracy } of the lines read against the lines shown, each side joined.
function characterAccuracy(read, truth) {
  const joined = (lines) => [...lines.join('')].filter((c) => !/\s/u.test(c));
  const a = joined(read);
  const b = joined(truth);
  const edits = editDistance(a, b);
  const characters = Math.max(a.length, b.length);
  return { edits, characters, accuracy: characters ? 1 - edits / characters : 1 };
}

module.exports = { readDictionary, decodeCtc, characterAccuracy };
