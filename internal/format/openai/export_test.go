package openai

// RefAgents is the openai-agents reader before its records were walked
// (see ref_test.go), for the tests to compare with.
var RefAgents = refAgents
