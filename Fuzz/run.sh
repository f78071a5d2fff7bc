#!/bin/sh
# Builds the fuzz target in its own scratch path and fuzzes for SECONDS (default 60).
#
# Every module is compiled with ASan and libFuzzer coverage; libFuzzer itself is linked
# from the toolchain's `fuzzer_no_main` runtime, because SwiftPM gives every executable its
# own `main` (main.swift hands control to LLVMFuzzerRunDriver). `-sanitize=fuzzer` cannot
# be used at link time: it force-links libFuzzer's `main` as well (duplicate symbol).
set -eu
cd "$(dirname "$0")/.."
SECONDS_TO_RUN="${1:-60}"
TOOLCHAIN="$(dirname "$(readlink -f "$(command -v swiftc)")")/.."
FUZZER_LIB="$(ls "$TOOLCHAIN"/lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a | head -n 1)"
python3 Fuzz/make-corpus.py
FUZZ=1 swift build --scratch-path .build-fuzz --product PasskeyWebAuthnFuzz \
    -Xswiftc -sanitize=address \
    -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table \
    -Xlinker "$FUZZER_LIB" -Xlinker -lstdc++
mkdir -p Fuzz/crashes
exec .build-fuzz/debug/PasskeyWebAuthnFuzz -max_total_time="$SECONDS_TO_RUN" -max_len=8192 \
    -artifact_prefix=Fuzz/crashes/ Fuzz/corpus
