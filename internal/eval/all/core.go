package all

import (
	_ "github.com/trajeval/trajeval/internal/eval/composite"
	_ "github.com/trajeval/trajeval/internal/eval/metrics"
	_ "github.com/trajeval/trajeval/internal/eval/trajectory"
)

import _ "github.com/trajeval/trajeval/internal/eval/judge"
import _ "github.com/trajeval/trajeval/internal/eval/code" // code graders
