#!/bin/sh
# Runs every real Triton 3.6 / H100 case under tests/data/corpus with ttref and
# compares with the GPU's outputs (see check_corpus.py). TAP output.
exec python3 "${TTREF_SRCDIR:-.}/tests/corpus/check_corpus.py" "${TTREF_TEST_DATA:-tests/data}/corpus"
