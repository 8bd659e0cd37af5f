-- Session tokens are stored as the hex SHA-256 of the cookie's token (lib/auth/hashed-session-tokens.ts).
-- Existing sessions keep working: their tokens are hashed in place (a token is 32 characters, a
-- hash 64, so no row is hashed twice).
UPDATE "sessions" SET "token" = encode(sha256(convert_to("token", 'UTF8')), 'hex') WHERE length("token") <> 64;
