package trace

import "github.com/trajeval/trajeval/internal/format/tau2"

func init() { register(62, tau2.Format) }
