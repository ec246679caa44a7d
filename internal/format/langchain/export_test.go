package langchain

// RefRuns is the langsmith reader before its records were walked (see
// ref_test.go), for the tests to compare with.
var RefRuns = refRuns
