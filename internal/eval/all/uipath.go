package all

import (
	_ "github.com/trajeval/trajeval/internal/eval/uipath"  // tool_call_order, _count, _args, _output
	_ "github.com/trajeval/trajeval/internal/suite/uipath" // UiPath evaluation sets and evaluator files
)
