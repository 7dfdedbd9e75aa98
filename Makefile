# gpurt: `make run` and `make test` set up a fresh Debian machine by themselves.
GO       ?= go
DEB_PKGS := mesa-vulkan-drivers libvulkan1 libvulkan-dev glslc spirv-tools vulkan-validationlayers
# The tests also run the arm64 kernels under qemu, and the chat page in chromium.
TEST_PKGS := $(DEB_PKGS) qemu-user chromium
SUDO     := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps test-deps install-pkgs test run shaders bench gpucheck build fmt vet

## deps: install the Debian packages gpurt's GPU paths need, if any is missing.
deps:
	@$(MAKE) --no-print-directory install-pkgs PKGS="$(DEB_PKGS)"

test-deps:
	@$(MAKE) --no-print-directory install-pkgs PKGS="$(TEST_PKGS)"
	@# The official OpenAI Node SDK, for server's client test (skipped without node/npm).
	@if command -v npm >/dev/null && [ ! -f server/testdata/node/node_modules/openai/package.json ]; then \
		cd server/testdata/node && npm ci --no-audit --no-fund; \
	fi

install-pkgs:
	@missing=""; for p in $(PKGS); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y --no-install-recommends $$missing; \
	fi

build:
	$(GO) build -o bin/gpurt ./cmd/gpurt

## test: vet and test everything (GPU tests run on lavapipe when no GPU exists).
test: test-deps
	$(GO) vet ./...
	# The portable kernels alone (no assembly), as on other architectures.
	$(GO) vet -tags purego ./cpu
	$(GO) test -count=1 -tags purego ./cpu
	$(GO) test -p 2 -timeout 20m ./...
	$(GO) test -race -p 2 -timeout 10m ./runtime ./cpu ./sched ./gguf ./llama ./server ./rpc ./tokenizer
	$(GO) test -race -count=1 -run 'Concurrent|WithinLimits' ./internal/jinja
	# The GPU backends' concurrency (async copies, events, release) under the race detector.
	$(GO) test -race -p 2 -timeout 10m -run 'Release|Smoke|Async|Event|SchedPipeline|Misuse|Concurrent|Uploads|SetThenFree' ./vk ./wgpu
	# The discrete-GPU transfer path: device-local memory never mapped, always staged.
	GPURT_VK_DISCRETE=1 $(GO) test -count=1 -p 2 -timeout 10m -run 'Buffer|Graph|Async|Release|Staging|Smoke|Event|Sched|Uploads|SetThenFree' ./vk
	# The BAR (ReBAR) path: device-local buffers written by the host, read through staging.
	GPURT_VK_DISCRETE=rebar $(GO) test -count=1 -p 2 -timeout 10m -run 'Buffer|Graph|Async|Release|Staging|Smoke|Event|Sched|Uploads|SetThenFree' ./vk
	# The arm64 NEON kernels under qemu: an ARMv8.0 CPU model, then one with
	# the ARMv8.2 dot product (the SDOT kernels; the baseline set runs too).
	GOARCH=arm64 CGO_ENABLED=0 $(GO) test -count=1 -exec 'qemu-aarch64 -cpu cortex-a53' ./cpu
	GOARCH=arm64 CGO_ENABLED=0 $(GO) test -count=1 -exec 'qemu-aarch64 -cpu max' ./cpu
	# The amd64 kernels on a CPU model without AVX-512 (qemu's Haswell): the
	# AVX-512 detection falls back to the AVX2 set, which passes the kernel tests.
	if [ "$$($(GO) env GOARCH)" = amd64 ]; then \
		$(GO) test -count=1 -exec 'qemu-x86_64 -cpu Haswell-v4' -run 'Kernel|TypeDot|Tile|Gemm|Unaligned|CPULevel|AVX512|SelectAMD64' ./cpu; fi
	# The quantizers stay byte-identical with ggml where Go fuses multiply-adds
	# (arm64 always, amd64 from GOAMD64=v3).
	GOARCH=arm64 CGO_ENABLED=0 $(GO) test -count=1 -exec 'qemu-aarch64' -run 'GGMLOracle|Q8_K' ./runtime
	if [ "$$($(GO) env GOARCH)" = amd64 ] && grep -qw fma /proc/cpuinfo && grep -qw avx2 /proc/cpuinfo; then \
		GOAMD64=v3 $(GO) test -count=1 -run 'GGMLOracle|Q8_K' ./runtime; fi
	# Counts, not durations: a time limit that ends while the fuzzer minimizes
	# a new input failed here with "context deadline exceeded".
	$(GO) test ./gguf -run '^$$' -fuzz FuzzRead -fuzztime 300000x -fuzzminimizetime 5s
	$(GO) test ./rpc -run '^$$' -fuzz FuzzServerRequests -fuzztime 50000x -fuzzminimizetime 5s
	$(GO) test ./internal/jinja -run '^$$' -fuzz FuzzRender -fuzztime 150000x -fuzzminimizetime 5s
	$(GO) test ./tokenizer -run '^$$' -fuzz FuzzEncodeDecode -fuzztime 20000x -fuzzminimizetime 5s
	$(GO) test ./tokenizer -run '^$$' -fuzz FuzzVocab -fuzztime 50000x -fuzzminimizetime 5s
	$(GO) test ./llama -run '^$$' -fuzz FuzzLoadHparams -fuzztime 3000x -fuzzminimizetime 5s
	$(GO) test ./server -run '^$$' -fuzz FuzzRequestBodies -fuzztime 50000x -fuzzminimizetime 5s
	$(GO) test ./server -run '^$$' -fuzz FuzzStopMatcher -fuzztime 50000x -fuzzminimizetime 5s

## run: the main job: generate text with the embedded default model on the best device.
run: deps build
	./bin/gpurt devices
	./bin/gpurt run -p "It is a truth universally acknowledged" -n 120

## shaders: compile GLSL to committed SPIR-V.
shaders:
	$(GO) generate ./internal/opcodes
	./shaders/compile_spirv.sh

## gpucheck: the device check for a lent GPU machine (JSON and Markdown in $$OUT, default ./gpucheck-out).
gpucheck: build
	./bench/gpucheck.sh $(GPUCHECK_FLAGS)

## bench: the quick benchmark suite.
bench: build
	./bin/gpurt bench --quick --json bin/bench.json --md bin/bench.md --png bin/bench.png

fmt:
	gofmt -w $$(git ls-files '*.go')
