#!/usr/bin/env bash
# quickstart.sh: set up, build, and run the quick-start experiment.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
build/hsim experiments/quickstart.ini
