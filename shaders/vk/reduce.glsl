// Workgroup reductions. With subgroup arithmetic (the default variant) a
// reduction is one subgroup op plus, when the workgroup holds several
// subgroups, one exchange through shared memory; the NO_SUBGROUPS variant is
// a shared-memory tree for devices without subgroup arithmetic.

#ifndef NO_SUBGROUPS
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_KHR_shader_subgroup_arithmetic : enable
#endif

shared float red_f[gl_WorkGroupSize.x];
shared uint red_u[gl_WorkGroupSize.x];

#ifndef NO_SUBGROUPS
float wg_sum(float v) {
	v = subgroupAdd(v);
	if (gl_NumSubgroups == 1u) return v;
	barrier();
	if (subgroupElect()) red_f[gl_SubgroupID] = v;
	barrier();
	float s = 0.0;
	for (uint i = 0u; i < gl_NumSubgroups; i++) s += red_f[i];
	return s;
}

float wg_max(float v) {
	v = subgroupMax(v);
	if (gl_NumSubgroups == 1u) return v;
	barrier();
	if (subgroupElect()) red_f[gl_SubgroupID] = v;
	barrier();
	float m = red_f[0];
	for (uint i = 1u; i < gl_NumSubgroups; i++) m = max(m, red_f[i]);
	return m;
}

uint wg_min_u(uint v) {
	v = subgroupMin(v);
	if (gl_NumSubgroups == 1u) return v;
	barrier();
	if (subgroupElect()) red_u[gl_SubgroupID] = v;
	barrier();
	uint m = red_u[0];
	for (uint i = 1u; i < gl_NumSubgroups; i++) m = min(m, red_u[i]);
	return m;
}
#else
float wg_sum(float v) {
	uint l = gl_LocalInvocationID.x;
	barrier();
	red_f[l] = v;
	barrier();
	for (uint s = gl_WorkGroupSize.x / 2u; s > 0u; s >>= 1u) {
		if (l < s) red_f[l] += red_f[l + s];
		barrier();
	}
	return red_f[0];
}

float wg_max(float v) {
	uint l = gl_LocalInvocationID.x;
	barrier();
	red_f[l] = v;
	barrier();
	for (uint s = gl_WorkGroupSize.x / 2u; s > 0u; s >>= 1u) {
		if (l < s) red_f[l] = max(red_f[l], red_f[l + s]);
		barrier();
	}
	return red_f[0];
}

uint wg_min_u(uint v) {
	uint l = gl_LocalInvocationID.x;
	barrier();
	red_u[l] = v;
	barrier();
	for (uint s = gl_WorkGroupSize.x / 2u; s > 0u; s >>= 1u) {
		if (l < s) red_u[l] = min(red_u[l], red_u[l + s]);
		barrier();
	}
	return red_u[0];
}
#endif
