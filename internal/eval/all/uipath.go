package all

import _ "github.com/trajeval/trajeval/internal/suite/uipath" // UiPath evaluation sets and evaluator files
