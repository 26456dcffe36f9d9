// What gru/lstm (and their cells) share: the scratch buffer (binding `scratch`, float32 words:
// biases, peepholes, hidden and cell states carried from step to step) and the spec's
// activations (MLRecurrentNetworkActivation order: 0 relu, 1 sigmoid, 2 tanh).

float scratchAt(uint i) { return uintBitsToFloat(scratch[i]); }
void setScratch(uint i, float value) { scratch[i] = floatBitsToUint(value); }

// Compensated (Neumaier) summation: sum + compensation is the running total, its rounding
// errors carried (the reference sums in double; a gate's pre-activation sums hundreds of terms).
void accumulate(inout float sum, inout float compensation, float value) {
  precise float next = sum + value;
  precise float error = abs(sum) >= abs(value) ? (sum - next) + value : (value - next) + sum;
  compensation += error;
  sum = next;
}

float activate(uint activation, float x) {
  if (activation == 0u) return max(x, 0.0);
  if (activation == 1u) return 1.0 / (1.0 + exp(-x));
  float t = exp(-2.0 * abs(x));  // tanh without overflow
  float r = (1.0 - t) / (1.0 + t);
  return x < 0.0 ? -r : r;
}
