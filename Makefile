# The two commands of the README. Both install what is missing (as root).
# `make check`: the fast inner loop (lint, commit messages, debug build, swift test); CI runs `make test`.
# `make container-test` (slow, not part of `make test`): docs/containers.md.
# `make bench` (≈ 4 minutes; `make test` runs it for a few seconds as a smoke test): docs/benchmark.md.
# `make bench-adoption` (not part of `make test`): docs/adoption.md.
# `make fleet-test` (slow, not part of `make test`; ≈ 3–6 minutes plus the release build): docs/operations.md.
.PHONY: run test check build clean container-test bench bench-adoption fleet-test

run:
	@scripts/run.sh

test:
	@scripts/test.sh

check:
	@scripts/test.sh --check

container-test:
	@scripts/container-test.sh

bench:
	@bash bench/run.sh

# The adoption figures and the activity page at 1M accounts and 10M events (not part of make
# test; ≈ 10 minutes): docs/adoption.md.
bench-adoption:
	@bash bench/adoption/run.sh

build:
	@scripts/deps.sh && swift build -c release

clean:
	rm -rf .build .build-*

# Two instances behind HAProxy on a Patroni pair, faults under load (docs/operations.md).
fleet-test:
	@bash scripts/fleet-test.sh
