import { ContractNotFound } from "./_components/contract-not-found";

export default function NotFound() {
  return <ContractNotFound />;
}
