// The certificate and key the sealed copies are signed with (docs/security.md "The seal"): the
// PKCS#12 file of SEAL_P12 and SEAL_P12_PASSWORD when set; else a self-signed one, made on first use
// and kept in the database (app_settings), so that every instance seals with the same one.
import { createHash, generateKeyPairSync, randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";

import forge from "node-forge";

import type { Tx } from "@/lib/db";
import { env } from "@/lib/env";

const SETTING = "seal_p12";

export interface TSealIdentity {
  p12: Buffer;
  password: string;
  /** The signer certificate, DER. */
  certificateDer: Buffer;
  /** SHA-256 (hex) of the certificate's DER: what /verify compares a signer with. */
  fingerprint: string;
  subject: string;
  selfSigned: boolean;
}

const g = globalThis as { __contractsSealIdentity?: Promise<TSealIdentity> };

/** One per process: the seal does not change while the deployment runs. */
export function loadSealIdentity(db: Tx): Promise<TSealIdentity> {
  g.__contractsSealIdentity ??= (async () => {
    const { SEAL_P12, SEAL_P12_PASSWORD } = env();
    if (SEAL_P12) return identityOf(readP12(SEAL_P12), SEAL_P12_PASSWORD ?? "", false);
    await db.appSetting.createMany({ data: [{ key: SETTING, value: JSON.stringify(makeSelfSigned()) }], skipDuplicates: true });
    const row = await db.appSetting.findUniqueOrThrow({ where: { key: SETTING } });
    const stored = JSON.parse(row.value) as { p12: string; password: string };
    return identityOf(Buffer.from(stored.p12, "base64"), stored.password, true);
  })().catch((error: unknown) => {
    g.__contractsSealIdentity = undefined;
    throw error;
  });
  return g.__contractsSealIdentity;
}

/** SEAL_P12: a path to the .p12/.pfx file when one exists there, else the file itself in base64. */
function readP12(value: string): Buffer {
  if (existsSync(value)) return readFileSync(value);
  const bytes = Buffer.from(value, "base64");
  if (bytes.length === 0) throw new Error("SEAL_P12: neither a readable file nor base64");
  return bytes;
}

/** Opens the PKCS#12 file: the certificate whose key is in it, and its fingerprint. */
function identityOf(p12: Buffer, password: string, selfSigned: boolean): TSealIdentity {
  let parsed: forge.pkcs12.Pkcs12Pfx;
  try {
    parsed = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(forge.util.createBuffer(p12.toString("binary"))), false, password);
  } catch (error) {
    throw new Error(`SEAL_P12: cannot open the PKCS#12 file with SEAL_P12_PASSWORD (${(error as Error).message})`);
  }
  const keyOid = forge.pki.oids.pkcs8ShroudedKeyBag!;
  const certOid = forge.pki.oids.certBag!;
  const keyBag = parsed.getBags({ bagType: keyOid })[keyOid]?.[0];
  const key = keyBag?.key as forge.pki.rsa.PrivateKey | undefined;
  if (!key?.n) throw new Error("SEAL_P12: holds no RSA private key");
  const certs = parsed.getBags({ bagType: certOid })[certOid] ?? [];
  const cert = certs.map((b: forge.pkcs12.Bag) => b.cert).find((c: forge.pki.Certificate | undefined) => {
    const pub = c?.publicKey as forge.pki.rsa.PublicKey | undefined;
    return pub?.n && pub.n.compareTo(key.n) === 0;
  });
  if (!cert) throw new Error("SEAL_P12: holds no certificate for its private key");
  const certificateDer = Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), "binary");
  return {
    p12,
    password,
    certificateDer,
    fingerprint: createHash("sha256").update(certificateDer).digest("hex"),
    subject: cert.subject.attributes.map((a: forge.pki.CertificateField) => `${a.shortName ?? a.name}=${String(a.value)}`).join(", "),
    selfSigned,
  };
}

/** A 3072-bit RSA key (made by Node: forge's own would take seconds) and a 20-year self-signed certificate for it, as PKCS#12. */
function makeSelfSigned(commonName = "Contracts document seal (self-signed)"): { p12: string; password: string } {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 3072, privateKeyEncoding: { type: "pkcs8", format: "pem" }, publicKeyEncoding: { type: "spki", format: "pem" } });
  const key = forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey;
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  // A positive serial: the top bit clear.
  cert.serialNumber = "0" + randomBytes(16).toString("hex");
  const now = new Date();
  cert.validity.notBefore = new Date(now.getTime() - 60_000);
  cert.validity.notAfter = new Date(now.getTime() + 20 * 365 * 24 * 3600_000);
  const name = [{ name: "commonName", value: commonName }, { name: "organizationName", value: "Contracts" }];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.setExtensions([
    { name: "basicConstraints", cA: false },
    { name: "keyUsage", critical: true, digitalSignature: true, nonRepudiation: true },
    { name: "subjectKeyIdentifier" },
  ]);
  cert.sign(key, forge.md.sha256.create());
  const password = randomBytes(18).toString("base64url");
  const asn1 = forge.pkcs12.toPkcs12Asn1(key, [cert], password, { algorithm: "aes256" });
  return { p12: Buffer.from(forge.asn1.toDer(asn1).getBytes(), "binary").toString("base64"), password };
}
