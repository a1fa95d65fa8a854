import FuzzSupport

runLibFuzzer(check)
