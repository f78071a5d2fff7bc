module passkeybench/loadgen

go 1.19
