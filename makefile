# Builds Ironwood the way OpenBench's client builds engines: `make -j EXE=<name>` in the
# repository's root, after which the engine is ./<name> (<name>.exe on Windows). Plain
# `make` gives ./ironwood. The build is cargo's release profile, the binary `cargo build
# --release` makes, written straight to that path. OpenBench passes no CC or CXX for a cargo
# engine. `EVALFILE=<file>` (OpenBench's way to build with a test's network; relative to this
# folder) embeds that network instead of src/nnue/default.nnue: build.rs reads it from the
# environment, which reaches cargo on any shell.

EXE ?= ironwood
CARGO ?= cargo

ifdef EVALFILE
    export IRONWOOD_EVALFILE := $(abspath $(EVALFILE))
endif

ifeq ($(OS),Windows_NT)
    BINARY := $(patsubst %.exe,%,$(EXE)).exe
else
    BINARY := $(EXE)
endif

.PHONY: all
all:
	$(CARGO) rustc --release --bin ironwood -- --emit link=$(abspath $(BINARY))
