package all

import (
	_ "github.com/trajeval/trajeval/internal/eval/adk"  // tool_trajectory_avg_score, response_match_score
	_ "github.com/trajeval/trajeval/internal/suite/adk" // ADK eval sets and test_config.json
)
