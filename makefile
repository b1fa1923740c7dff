# Builds Ironwood the way OpenBench's client builds engines: `make -j EXE=<name>` in the
# repository's root, after which the engine is ./<name> (<name>.exe on Windows). Plain
# `make` gives ./ironwood. The build is cargo's release profile, the binary `cargo build
# --release` makes, written straight to that path. OpenBench passes no CC or CXX for a cargo
# engine; an EVALFILE it passes is not used (the network is the one in src/nnue/).

EXE ?= ironwood
CARGO ?= cargo

ifeq ($(OS),Windows_NT)
    BINARY := $(patsubst %.exe,%,$(EXE)).exe
else
    BINARY := $(EXE)
endif

.PHONY: all
all:
	$(CARGO) rustc --release --bin ironwood -- --emit link=$(abspath $(BINARY))
