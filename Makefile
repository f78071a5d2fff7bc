# The two commands of the README. Both install what is missing (as root).
# `make container-test` (slow, not part of `make test`): docs/containers.md.
.PHONY: run test build clean container-test

run:
	@scripts/run.sh

test:
	@scripts/test.sh

container-test:
	@scripts/container-test.sh

build:
	@scripts/deps.sh && swift build -c release

clean:
	rm -rf .build .build-*
