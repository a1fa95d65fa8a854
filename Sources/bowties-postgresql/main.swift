import BowTiePostgres
import BowtiesCLI

// bowties with the PostgreSQL engine: what `bowties` hands a command over to when its store
// is a connection URI. It runs every command, on either engine.
PostgresEngine.register()
Bowties.main()
