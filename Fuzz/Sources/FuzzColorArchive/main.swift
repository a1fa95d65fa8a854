import FuzzSupport

_ = registeredTransformer
runLibFuzzer(check)
