// Dashboard test helpers: users created as `asset-delivery users create` does, and signing in
// through the form as a person would (by the fields' labels and the button's name).
import type { Permission } from "@asset-delivery/sdk";
import { createUser, ensureAccount, type Database } from "@asset-delivery/server";
import { expect } from "vitest";
import type { Page } from "playwright-core";

export const PASSWORD = "correct horse battery staple";

export async function addUser(db: Database, email: string, permissions: Permission[], account = "test"): Promise<string> {
  ensureAccount(db, { name: account, plan: "enterprise", video: true });
  await createUser(db, { account, email, permissions, password: PASSWORD });
  return email;
}

export async function signIn(page: Page, baseUrl: string, email: string, password = PASSWORD): Promise<void> {
  await page.goto(`${baseUrl}/dashboard/login`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForLoadState("domcontentloaded");
  expect(new URL(page.url()).pathname).not.toBe("/dashboard/login");
}
