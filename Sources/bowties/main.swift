import BowTiePostgres
import BowtiesCLI

// The command line lives in the BowtiesCLI library, where the tests and the fuzzer reach it;
// the program adds the PostgreSQL engine, which they do without.
PostgresEngine.register()
Bowties.main()
