import BowtiesCLI

// The command line lives in the BowtiesCLI library, where the tests and the fuzzer reach it.
Bowties.main()
