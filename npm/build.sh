#!/bin/sh
# Builds the npm packages from the release archives:
#   npm/build.sh DIST VERSION OUT
# makes OUT/trajeval (the main package) and OUT/<os>-<cpu> (one package per
# platform, @trajeval/<os>-<cpu>, holding its binary) and packs each into
# OUT/*.tgz. DIST is the folder that go run ./release wrote.
set -eu
dist=$1 version=${2#v} out=$3
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$out" && mkdir -p "$out"
out=$(cd "$out" && pwd)
deps=""
for pair in linux/amd64/linux/x64 linux/arm64/linux/arm64 darwin/amd64/darwin/x64 darwin/arm64/darwin/arm64 windows/amd64/win32/x64 windows/arm64/win32/arm64; do
  goos=${pair%%/*}; rest=${pair#*/}; goarch=${rest%%/*}; rest=${rest#*/}; os=${rest%%/*}; cpu=${rest#*/}
  base="$dist/trajeval_${version}_${goos}_${goarch}"
  pkg="$out/$os-$cpu"
  mkdir -p "$pkg/bin"
  cp "$here/../LICENSE" "$pkg/LICENSE"
  if [ -f "$base.tar.gz" ]; then
    tar xzf "$base.tar.gz" -C "$pkg/bin" trajeval
  elif [ -f "$base.zip" ]; then
    unzip -q -o "$base.zip" trajeval.exe -d "$pkg/bin"
  else
    echo "npm/build.sh: no archive for $goos/$goarch in $dist; skipping @trajeval/$os-$cpu" >&2
    rm -rf "$pkg"; continue
  fi
  cat > "$pkg/package.json" <<JSON
{
  "name": "@trajeval/$os-$cpu",
  "version": "$version",
  "description": "The trajeval binary for $os $cpu",
  "license": "Apache-2.0",
  "repository": "github:trajeval/trajeval",
  "os": ["$os"],
  "cpu": ["$cpu"],
  "files": ["bin", "LICENSE"],
  "preferUnplugged": true
}
JSON
  deps="$deps${deps:+,}
    \"@trajeval/$os-$cpu\": \"$version\""
  (cd "$out" && npm pack --silent "$pkg" >/dev/null)
done
cp -R "$here/trajeval" "$out/trajeval"
cp "$here/../README.md" "$here/../LICENSE" "$out/trajeval/"
cat > "$out/trajeval/package.json" <<JSON
{
  "name": "trajeval",
  "version": "$version",
  "description": "Score what AI agents do (tool calls, order, arguments, timing, errors) from traces",
  "license": "Apache-2.0",
  "repository": "github:trajeval/trajeval",
  "main": "index.js",
  "bin": { "trajeval": "bin/trajeval.js" },
  "files": ["index.js", "promptfoo.js", "bin", "README.md", "LICENSE"],
  "engines": { "node": ">=18" },
  "optionalDependencies": {$deps
  }
}
JSON
(cd "$out" && npm pack --silent "$out/trajeval" >/dev/null)
ls "$out"/*.tgz
