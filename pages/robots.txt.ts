// /robots.txt: everything public is crawlable; the user's own list, admin and sign-in are not.
import type { GetServerSideProps } from 'next'
import { robotsTxt } from '@/src/lib/seo'

export const getServerSideProps: GetServerSideProps = async ({ res }) => {
  res.setHeader('Content-Type', 'text/plain; charset=utf-8')
  res.setHeader('Cache-Control', 'public, s-maxage=86400, stale-while-revalidate=86400')
  res.end(robotsTxt())
  return { props: {} }
}

export default function Robots() {
  return null
}
