# The two commands of the README. Both install what is missing (as root).
# `make container-test` (slow, not part of `make test`): docs/containers.md.
# `make bench` (≈ 4 minutes; `make test` runs it for a few seconds as a smoke test): docs/benchmark.md.
.PHONY: run test build clean container-test bench

run:
	@scripts/run.sh

test:
	@scripts/test.sh

container-test:
	@scripts/container-test.sh

bench:
	@bash bench/run.sh

build:
	@scripts/deps.sh && swift build -c release

clean:
	rm -rf .build .build-*
