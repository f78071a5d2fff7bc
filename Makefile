# The two commands of the README. Both install what is missing (as root).
.PHONY: run test build clean

run:
	@scripts/run.sh

test:
	@scripts/test.sh

build:
	@scripts/deps.sh && swift build -c release

clean:
	rm -rf .build .build-*
