// Shared by every shader: the parameter block (binding 0, 32-bit words the op file wrote; floats
// as their bits) and the flat invocation index of a 1-D dispatch split over x and y.
layout(std430, binding = 0) readonly buffer Params { uint p[]; };

uint flatIndex() {
  return gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x;
}
float pf(uint i) { return uintBitsToFloat(p[i]); }
