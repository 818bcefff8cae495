// The accounts module: accounts and their API keys, as stores on the app (the CLI's admin commands
// use the same stores on the database directly).
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { createAccountStore, type AccountStore } from "./account-store";
import { createKeyStore, type KeyStore } from "./key-store";

declare module "fastify" {
  interface FastifyInstance {
    accounts: AccountStore;
    keys: KeyStore;
  }
}

export const accountsPlugin = fp(
  async function accounts(app: FastifyInstance) {
    const { db, now } = app.appOptions;
    app.decorate("accounts", createAccountStore(db, now));
    app.decorate("keys", createKeyStore(db, now));
  },
  { name: "accounts", decorators: { fastify: ["appOptions"] } },
);
