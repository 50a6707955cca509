// The benchmarks' PostgreSQL databases: dropped and created afresh on each run.
import { Client } from 'pg'

/** Recreates database `name` on the server of `serverUrl`; returns its connection string. */
export async function freshDatabase(serverUrl: string, name: string): Promise<string> {
  const admin = new Client({ connectionString: serverUrl })
  await admin.connect()
  await admin.query(`drop database if exists ${name} with (force)`)
  await admin.query(`create database ${name}`)
  await admin.end()
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return url.toString()
}
