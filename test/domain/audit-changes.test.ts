import { expect, test } from "vitest";
import { auditChanges } from "@/lib/domain/audit-changes";

test("each changed attribute from → to; unchanged ones left out", () => {
  expect(auditChanges({ title: "", name: "Ann", _permissions: { "contract:update": false } }, { title: "CEO", name: "Ann", _permissions: { "contract:update": true } })).toEqual([
    { field: "title", from: "", to: "CEO" },
    { field: "_permissions.contract:update", from: false, to: true },
  ]);
});

test("a creation has no before, a deletion no after: the missing side is null", () => {
  expect(auditChanges(null, { name: "X", parties: [{ id: 1 }] })).toEqual([
    { field: "name", from: null, to: "X" },
    { field: "parties", from: null, to: [{ id: 1 }] },
  ]);
  expect(auditChanges({ id: 3, state: "draft" }, undefined)).toEqual([
    { field: "id", from: 3, to: null },
    { field: "state", from: "draft", to: null },
  ]);
});

test("lists compare by value, objects inside them in any key order", () => {
  expect(auditChanges({ ids: [1, 2], x: [{ a: 1, b: 2 }] }, { ids: [1, 2], x: [{ b: 2, a: 1 }] })).toEqual([]);
  expect(auditChanges({ ids: [1, 2] }, { ids: [2, 1] })).toEqual([{ field: "ids", from: [1, 2], to: [2, 1] }]);
});

test("a value that is not an object is one change named value", () => {
  expect(auditChanges(1, 2)).toEqual([{ field: "value", from: 1, to: 2 }]);
  expect(auditChanges(null, null)).toEqual([]);
});
