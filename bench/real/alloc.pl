#!/usr/bin/perl
# An allocation-heavy Perl workload for make bench-real.
#
# Debian's perl uses the C library's malloc (usemymalloc=n), so every
# scalar, array, hash and string buffer below goes through the malloc
# being measured. Hashes of arrays, string building, sorting and
# record churn in a deterministic pattern; prints a digest. The
# argument scales the work (1: about a second here).
use strict;
use warnings;

my $scale = $ARGV[0] // 1;
my $seed = 424242;

sub rnd {
	$seed = ($seed * 1103515245 + 12345) % 2147483648;
	return $seed;
}

sub records {
	my ($rounds, $size) = @_;
	my $digest = 0;
	for my $r (1 .. $rounds) {
		my %h;
		for my $i (1 .. $size) {
			my $k = "key" . (rnd() % ($size * 2));
			push @{ $h{$k} }, { id => $i, tag => "t" . ($i % 97), r => $r };
		}
		for my $k (sort keys %h) {
			$digest = ($digest + scalar(@{ $h{$k} }) * length($k)) % 1000000007;
		}
	}
	return $digest;
}

sub strings {
	my ($rounds) = @_;
	my $digest = 0;
	for my $r (1 .. $rounds) {
		my @parts = map { sprintf("%d=%s", $_, "y" x (rnd() % 40)) } 1 .. 200;
		my $s = join(",", @parts);
		my @back = split /,/, $s;
		$digest = ($digest + length($s) + scalar(@back)) % 1000000007;
	}
	return $digest;
}

sub sorting {
	my ($n) = @_;
	my @a = map { [rnd() % 100000, "v" . $_] } 1 .. $n;
	my @s = sort { $a->[0] <=> $b->[0] or $a->[1] cmp $b->[1] } @a;
	return $s[0][0] + $s[-1][0] + scalar(@s);
}

print join(" ", records(int(40 * $scale), 5000), strings(int(2000 * $scale)),
	   sorting(int(100000 * $scale))), "\n";
