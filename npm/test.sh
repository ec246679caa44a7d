#!/bin/sh
# The Node side of trajeval, tested from the repository: builds the release
# archives, packs the npm packages, installs the tarballs into a scratch
# project (offline) and runs the command and the API there, then runs the
# CI action's steps as a script. Usage: npm/test.sh (from anywhere).
#   RELEASE_PLATFORMS=linux/amd64 npm/test.sh   builds only those archives
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$repo"
version=v0.0.0-ci
echo "== release archives"
go run ./release -version "$version" -out "$scratch/dist" ${RELEASE_PLATFORMS:+-platforms "$RELEASE_PLATFORMS"}
(cd "$scratch/dist" && sha256sum -c --quiet SHA256SUMS)
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "npm/test.sh: SKIP the npm tests: node and npm are not installed"
  exit 0
fi
echo "== npm packages"
npm/build.sh "$scratch/dist" "$version" "$scratch/pkgs"
plat=$(node -p 'process.platform + "-" + process.arch')
mkdir "$scratch/project"
cd "$scratch/project"
npm init -y >/dev/null
npm install --offline --no-audit --no-fund --omit=optional "$scratch/pkgs/trajeval-${version#v}.tgz" "$scratch/pkgs/trajeval-$plat-${version#v}.tgz" >/dev/null
cp "$repo/npm/test/api.test.js" .
TRAJEVAL_REPO="$repo" TRAJEVAL_DB=off node --test api.test.js
bin="$scratch/project/node_modules/@trajeval/$plat/bin/trajeval"
echo "== AgentV code-grader"
TRAJEVAL_BINARY="$bin" sh "$repo/npm/test-agentv.sh"
echo "== promptfoo assertion"
# promptfoo's install builds better-sqlite3 from source on Node 20 (over 7
# minutes here), so it runs only when asked: TRAJEVAL_TEST_PROMPTFOO=1.
if [ "${TRAJEVAL_TEST_PROMPTFOO:-}" != 1 ]; then
  echo "npm/test.sh: SKIP the promptfoo test (set TRAJEVAL_TEST_PROMPTFOO=1; its install takes minutes)"
else TRAJEVAL_PACKAGES="$scratch/pkgs" TRAJEVAL_PLATFORM="$plat" TRAJEVAL_VERSION="${version#v}" sh "$repo/npm/test-promptfoo.sh"
fi
echo "== CI action"
TRAJEVAL_BINARY="$bin" sh "$repo/npm/test-action.sh"
