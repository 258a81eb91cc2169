#!/usr/bin/env bash
# The dependency rules (.dependency-cruiser.cjs; docs/architecture.md): no import
# cycles, repositories only inside packages/core, packages/domain imports no
# other workspace package and no I/O, packages/api imports only the domain,
# no package reaches into another by a relative path, and shipped code imports
# no test code and no devDependency.
set -euo pipefail
cd "$(dirname "$0")/.."
npx depcruise --config .dependency-cruiser.cjs --output-type err-long packages apps scripts
