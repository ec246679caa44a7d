#!/bin/sh
# The Node side of trajeval, tested from the repository: builds the release
# archives and checks what they hold, packs the npm packages, installs the
# tarballs into a scratch project (offline) and runs the command and the
# API there, then AgentV and promptfoo (the real CLIs from the npm
# registry) with trajeval as their grader, and last the CI action's steps
# as a script. Usage: npm/test.sh (from anywhere).
#   RELEASE_PLATFORMS=linux/amd64 npm/test.sh   archives for those only
# Needs Go, Node >= 18 and npm; AgentV and promptfoo are skipped, with a
# message, when the npm registry cannot be reached.
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
die() { echo "npm/test.sh: $*" >&2; exit 1; }
cd "$repo"
version=v0.0.0-ci
v=${version#v}

echo "== release archives"
go run ./release -version "$version" -out "$scratch/dist" ${RELEASE_PLATFORMS:+-platforms "$RELEASE_PLATFORMS"}
(cd "$scratch/dist" && sha256sum -c --quiet SHA256SUMS)
# Each archive holds the binary, the README and the LICENSE, nothing else.
for a in "$scratch"/dist/*.tar.gz "$scratch"/dist/*.zip; do
  [ -e "$a" ] || continue
  case $a in
    *.zip) got=$(unzip -Z1 "$a" | sort | tr '\n' ' ') want="LICENSE README.md trajeval.exe " ;;
    *) got=$(tar tzf "$a" | sort | tr '\n' ' ') want="LICENSE README.md trajeval " ;;
  esac
  [ "$got" = "$want" ] || die "$(basename "$a") holds [$got], want [$want]"
done

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "npm/test.sh: SKIP the npm tests: node and npm are not installed"
  exit 0
fi
echo "== npm packages ($(node --version), npm $(npm --version))"
npm/build.sh "$scratch/dist" "$version" "$scratch/pkgs"
for p in "$scratch"/pkgs/*.tgz; do
  tar tzf "$p" | grep -qx 'package/LICENSE' || die "$(basename "$p") has no LICENSE"
done
plat=$(node -p 'process.platform + "-" + process.arch')
mkdir "$scratch/project"
cd "$scratch/project"
npm init -y >/dev/null
npm install --offline --no-audit --no-fund --omit=optional "$scratch/pkgs/trajeval-$v.tgz" "$scratch/pkgs/trajeval-$plat-$v.tgz" >/dev/null
cp "$repo/npm/test/api.test.js" .
TRAJEVAL_REPO="$repo" TRAJEVAL_DB=off node --test api.test.js
bin="$scratch/project/node_modules/@trajeval/$plat/bin/trajeval"

echo "== AgentV code-grader"
TRAJEVAL_BINARY="$bin" sh "$repo/npm/test-agentv.sh"

echo "== promptfoo assertion"
TRAJEVAL_PACKAGES="$scratch/pkgs" TRAJEVAL_PLATFORM="$plat" TRAJEVAL_VERSION="$v" sh "$repo/npm/test-promptfoo.sh"

echo "== CI action"
TRAJEVAL_DIST="$scratch/dist" TRAJEVAL_PACKAGES="$scratch/pkgs" TRAJEVAL_PLATFORM="$plat" TRAJEVAL_VERSION="$v" sh "$repo/npm/test-action.sh"
echo "npm/test.sh: ok"
