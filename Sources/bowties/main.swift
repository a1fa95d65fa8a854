import BowtiesCLI

// The command line lives in the BowtiesCLI library, where the tests and the fuzzer reach it.
// This program links no PostgreSQL engine: a command on a PostgreSQL store is handed over to
// bowties-postgresql (PostgreSQLProgram).
Bowties.main()
