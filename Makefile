# Two commands for a newcomer; everything else is CMake.
#   make example  - build, then inspect and decode the shipped example
#   make check    - the whole test suite (installs what it needs)
BUILD ?= build/release

.PHONY: all example check clean

all:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build $(BUILD) -j2

example: all
	bash examples/run_example.sh $(BUILD)/tools/wai/wai

check:
	bash tests/ci/check.sh

clean:
	rm -rf build
