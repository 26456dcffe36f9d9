// Shared by every shader: the parameter block (binding 0, 32-bit words the op file wrote; floats
// as their bits) and the flat invocation index of a 1-D dispatch (a step of more than 65535
// workgroups is recorded as several dispatches, each with its first index as a push constant).
layout(std430, binding = 0) readonly buffer Params { uint p[]; };
layout(push_constant) uniform Dispatch { uint firstIndex; };

uint flatIndex() { return firstIndex + gl_GlobalInvocationID.x; }
float pf(uint i) { return uintBitsToFloat(p[i]); }
