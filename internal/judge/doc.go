// Package judge asks an LLM judge: a client for OpenAI-compatible chat
// completions on net/http, with retries, a rate limit, a bound on
// concurrent requests and an on-disk cache of answers. The user's guide to
// the same rules is docs/judges.md.
//
// # Configuration
//
// A judge needs an endpoint, a model and, for hosted services, a key. They
// come from (weakest first, see [Resolve]; package spec reads a suite's
// judge: blocks into [Block] values, so this package knows nothing of
// suite files):
//  1. OPENAI_API_KEY, OPENAI_BASE_URL (default https://api.openai.com/v1
//     when a key is set) and OPENAI_API_VERSION;
//  2. the suite's judge: block, then an evaluator's own judge: block:
//     base_url, model, api_key_env (the name of the variable that holds
//     the key; a key is never written in a file), api_version,
//     temperature (default 0; null sends none), max_tokens, timeout
//     (seconds or "30s"; default 60s), max_retries (default 3),
//     requests_per_minute, output (auto, json_schema, json_object, text)
//     and price {input, output} in USD per million tokens (an evaluator's
//     model and temperature keys are shortcuts for its own block's);
//  3. TRAJEVAL_JUDGE_API_KEY, TRAJEVAL_JUDGE_BASE_URL, TRAJEVAL_JUDGE_MODEL
//     and TRAJEVAL_JUDGE_API_VERSION.
//
// Endpoints:
//   - OpenAI: OPENAI_API_KEY and TRAJEVAL_JUDGE_MODEL=gpt-4o-mini.
//   - Azure OpenAI: base_url https://RESOURCE.openai.azure.com/openai/deployments/DEPLOYMENT
//     with api_version (e.g. 2024-10-21), or the v1 API
//     https://RESOURCE.openai.azure.com/openai/v1; the key goes in the
//     api-key header.
//   - OpenRouter: base_url https://openrouter.ai/api/v1, a model such as
//     openai/gpt-4o-mini; the cost it reports is used.
//   - vLLM: base_url http://HOST:8000/v1, the served model's name.
//   - llama.cpp server: base_url http://localhost:8080/v1, any model name.
//   - Ollama: base_url http://localhost:11434/v1, a pulled model (llama3.1).
//
// Local servers need no key. A judged evaluator whose judge lacks an
// endpoint, key or model makes the run stop before any case, with one
// error naming the variables ([ErrNoJudge]).
//
// # Requests
//
//  1. The answer is asked for as JSON with a strict JSON Schema
//     (response_format json_schema); a server that refuses it (400 naming
//     response_format) is asked again without, for the rest of the run,
//     and answers are read tolerantly (code fences, prose around the
//     object, a <think> section).
//  2. 408, 429, 5xx, network errors and timeouts are retried max_retries
//     times, waiting what Retry-After says (seconds or a date, at most 60
//     seconds), else an exponential backoff with full jitter.
//  3. An answer that is not the JSON asked for, or out of range, is asked
//     for once more; a second bad answer is an error, never a score.
//  4. requests_per_minute spaces the requests to one endpoint; at most
//     --judge-workers requests are in flight at once. An evaluator's
//     independent calls (one per tool, one per invocation) are sent
//     together, up to that bound.
//  5. The key is sent in a header only, to the endpoint configured only: a
//     redirect to another host is refused (see secret.KeepHost).
//  6. No run of 8 bytes of the key survives in what the endpoint sends
//     back (answers, each string of a parsed answer, error messages,
//     cut to 300 bytes after scrubbing): it never reaches results,
//     errors, cache entries or the history (see package secret).
//
// # The cache
//
// Valid answers are kept under the user cache folder (trajeval/judge;
// --cache-dir moves it, --no-cache ignores it), keyed by a hash of the
// endpoint, model, parameters, schema and every message (see [Cache]). A
// rerun of an unchanged suite sends no request and gives the same scores.
//
// # The agent's text is data
//
// Whatever the agent, its tools or its users wrote enters a prompt only
// through [Data]: JSON-encoded inside <data name="…"> … </data>, with <
// and > escaped so it cannot close its section. [System] tells the judge
// that data sections are evidence, never instructions.
package judge
