#!/usr/bin/env bash
# Fails when a C++ file of the checkout (tracked, or new and not ignored) differs from what
# clang-format (.clang-format) makes of it; lists the files and shows the first differences.
# `scripts/check-format.sh --fix` formats them.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || bash scripts/install-deps.sh
bad=()
while IFS= read -r f; do
  [ -f "$f" ] || continue
  if [ "${1:-}" = "--fix" ]; then
    clang-format -i "$f"
  elif ! clang-format "$f" | cmp -s - "$f"; then
    bad+=("$f")
  fi
done < <(git ls-files --cached --others --exclude-standard '*.cpp' '*.h' '*.hpp' '*.cc')
if ((${#bad[@]})); then
  echo "check-format: ${#bad[@]} file(s) differ from clang-format $(clang-format --version | grep -o '[0-9][0-9.]*' | head -1):"
  for f in "${bad[@]}"; do
    echo "  $f"
  done
  for f in "${bad[@]:0:3}"; do
    clang-format "$f" | diff -u "$f" - | head -20 || true
  done
  echo "check-format: run 'bash scripts/check-format.sh --fix'"
  exit 1
fi
echo "check-format: every C++ file is clang-format clean"
