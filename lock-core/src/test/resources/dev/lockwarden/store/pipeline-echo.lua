-- NodePipelineTest: returns its first argument
return ARGV[1]
