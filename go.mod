module github.com/trajeval/trajeval

go 1.26
