/// Stores as an older bowties left them, made by undoing a migration on a current one.
public enum OlderStores {
  /// PostgreSQL statements that take a store back to before prices had a currency: the
  /// migration `p2: price currency` undone, its constraint, column and record gone.
  public static let beforePriceCurrency = """
    ALTER TABLE bowTie DROP CONSTRAINT bowTie_priceCurrency;
    ALTER TABLE bowTie DROP COLUMN currency;
    DELETE FROM bowties_migrations WHERE name = 'p2: price currency';
    """
}
