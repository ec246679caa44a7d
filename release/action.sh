#!/bin/sh
# The steps of the trajeval GitHub Action (action.yml at the repository's
# root), as one script so that they can run outside a CI runner too.
#
# Inputs come as INPUT_* variables:
#   INPUT_PATH          suite file or folder (required)
#   INPUT_TRACES        trace file (eval --traces)
#   INPUT_VERSION       release to install: a tag such as v1.2.3, or latest
#   INPUT_SOURCE        release (the archive, default) or npm (the npm package)
#   INPUT_DOWNLOAD_URL  folder URL holding the archives and SHA256SUMS (a
#                       mirror); default: the GitHub release of INPUT_VERSION
#   INPUT_NPM_PACKAGE   what npm installs for source npm, split on spaces
#                       (default trajeval@VERSION)
#   INPUT_ARGS          more eval flags, split on spaces
#   INPUT_JUNIT         the JUnit file to write (default trajeval-junit.xml)
# The runner's RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP and GITHUB_STEP_SUMMARY
# say where. TRAJEVAL_BINARY skips the install and uses that binary.
# The exit code is eval's: 0 all passed, 1 some case failed, 2 bad input
# (or an install that failed: a download, a checksum, npm).
set -eu
# No word of an input is a pattern: INPUT_ARGS and INPUT_NPM_PACKAGE are
# split on spaces, and --filter shop/* must reach trajeval as it is, not
# as the workspace's files it matches.
set -f
: "${INPUT_PATH:?the action needs path: a suite file or folder}"
fail() { echo "trajeval action: $*" >&2; exit 2; }
tmp=${RUNNER_TEMP:-$(mktemp -d)}
tag=${INPUT_VERSION:-latest}
bin=${TRAJEVAL_BINARY:-}
from="TRAJEVAL_BINARY"
if [ -z "$bin" ]; then
  case "${INPUT_SOURCE:-release}" in
  release)
    case "${RUNNER_OS:-Linux}" in
      Linux) os=linux ext=tar.gz ;; macOS) os=darwin ext=tar.gz ;; Windows) os=windows ext=zip ;;
      *) fail "unknown RUNNER_OS ${RUNNER_OS}" ;;
    esac
    case "${RUNNER_ARCH:-X64}" in
      X64) arch=amd64 ;; ARM64) arch=arm64 ;;
      *) fail "no trajeval build for RUNNER_ARCH ${RUNNER_ARCH} (hint: source: npm, or TRAJEVAL_BINARY)" ;;
    esac
    url=${INPUT_DOWNLOAD_URL:-}
    if [ -z "$url" ]; then
      base=https://github.com/trajeval/trajeval/releases
      if [ "$tag" = latest ]; then url=$base/latest/download; else url=$base/download/$tag; fi
    fi
    url=${url%/}
    dir=$tmp/trajeval-bin
    mkdir -p "$dir"
    cd "$dir"
    curl -fsSL --retry 3 -o SHA256SUMS "$url/SHA256SUMS" || fail "cannot download $url/SHA256SUMS"
    name=$(grep "_${os}_${arch}\.${ext}\$" SHA256SUMS | awk '{print $2}')
    [ -n "$name" ] || fail "no ${os}/${arch} archive in $url/SHA256SUMS"
    # The name comes from the download folder: a file name, never a path.
    case "$name" in */* | .* | *[!A-Za-z0-9._-]*) fail "SHA256SUMS in $url names an archive that is not a plain file name" ;; esac
    curl -fsSL --retry 3 -o "$name" "$url/$name" || fail "cannot download $url/$name"
    if command -v sha256sum >/dev/null; then sum="sha256sum"; else sum="shasum -a 256"; fi
    grep " $name\$" SHA256SUMS | $sum -c - >/dev/null 2>&1 || fail "$name does not match its checksum in $url/SHA256SUMS"
    if [ "$ext" = zip ]; then unzip -q -o "$name"; bin=$dir/trajeval.exe; else tar xzf "$name"; bin=$dir/trajeval; fi
    cd - >/dev/null
    from=$url/$name
    ;;
  npm)
    command -v npm >/dev/null || fail "source npm needs Node and npm on the runner (hint: actions/setup-node first)"
    dir=$tmp/trajeval-npm
    mkdir -p "$dir"
    spec=${INPUT_NPM_PACKAGE:-trajeval@${tag#v}}
    # INPUT_NPM_PACKAGE is split on spaces on purpose: it may name several.
    # shellcheck disable=SC2086
    (cd "$dir" && npm init -y >/dev/null && npm install --no-audit --no-fund --loglevel=error $spec >/dev/null) || fail "npm install $spec failed"
    bin=$(cd "$dir" && node -p 'require("trajeval").binaryPath()') || fail "the npm package has no binary for this runner"
    from="npm $spec"
    ;;
  *) fail "source must be release or npm, not ${INPUT_SOURCE}" ;;
  esac
fi
echo "trajeval action: $("$bin" version) from $from" >&2
results=$tmp/trajeval-results.jsonl
junit=${INPUT_JUNIT:-trajeval-junit.xml}
rm -f "$results"
set +e
# INPUT_ARGS is split on spaces on purpose: it holds flags.
# shellcheck disable=SC2086
"$bin" eval "$INPUT_PATH" ${INPUT_TRACES:+--traces "$INPUT_TRACES"} --no-db -q --out "$results" ${INPUT_ARGS:-}
code=$?
set -e
if [ -s "$results" ]; then
  mkdir -p "$(dirname "$junit")"
  "$bin" report --format junit -o "$junit" "$results"
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    "$bin" report --format markdown "$results" >>"$GITHUB_STEP_SUMMARY"
  fi
fi
exit $code
