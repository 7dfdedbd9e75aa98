#!/bin/sh
# Compiles every Vulkan shader variant listed in vk/variants.txt to
# vk/<name>.spv with glslc (set GLSLC to use another binary). Run by
# `make shaders`; the .spv files are committed.
set -eu
cd "$(dirname "$0")/vk"
GLSLC=${GLSLC:-glslc}
grep -v '^[[:space:]]*#' variants.txt | while read -r name src defines; do
	[ -n "$name" ] || continue
	# shellcheck disable=SC2086 # defines are separate words
	"$GLSLC" --target-env=vulkan1.1 -O $defines "$src" -o "$name.spv"
done
