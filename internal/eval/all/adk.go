package all

import _ "github.com/trajeval/trajeval/internal/suite/adk" // ADK eval sets and test_config.json
