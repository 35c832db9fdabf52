! The Fortran counterpart of unchanged_c.c (the mpi module): wildcard
! receives completed by Waitany, a Testsome polling loop, persistent
! requests, Sendrecv, Probe, a non-blocking reduction, a communicator split
! by parity and duplicated, and MPI-IO (a blocking write and a non-blocking
! read of each rank's own file). Rank 0 prints one line per rank of integer
! results that do not depend on timing.
! Usage: unchanged_fortran directory [iterations]
program unchanged_fortran
  use mpi
  implicit none
  integer, parameter :: n = 512
  integer :: ierr, rank, nprocs, left, right, it, i, iterations, idx, got, outcount, remaining
  integer :: half, copy, hsize, fh, req, ireq
  integer :: requests(2), persistent(2), indices(2)
  integer :: status(MPI_STATUS_SIZE), statuses(MPI_STATUS_SIZE, 2)
  integer :: sendbuf(n), recvbuf(n), pout(n), pin(n), probe_in(n), filebuf(n)
  integer(kind=MPI_OFFSET_KIND) :: offset
  integer(kind=8) :: results(6), mine, summed, hsum
  integer(kind=8), allocatable :: all(:)
  character(len=4096) :: dir, path
  character(len=32) :: arg

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  if (command_argument_count() < 1) then
    if (rank == 0) print '(a)', 'usage: unchanged_fortran directory [iterations]'
    call MPI_Abort(MPI_COMM_WORLD, 2, ierr)
  end if
  call get_command_argument(1, dir)
  iterations = 6
  if (command_argument_count() > 1) then
    call get_command_argument(2, arg)
    read (arg, *) iterations
  end if
  right = mod(rank + 1, nprocs)
  left = mod(rank + nprocs - 1, nprocs)
  results = 0
  call MPI_Send_init(pout, n, MPI_INTEGER, right, 60, MPI_COMM_WORLD, persistent(1), ierr)
  call MPI_Recv_init(pin, n, MPI_INTEGER, left, 60, MPI_COMM_WORLD, persistent(2), ierr)
  do it = 1, iterations
    ! A wildcard receive (any source, any tag) from the left, by Waitany.
    do i = 1, n
      sendbuf(i) = mod(rank * 97 + i * 13 + it, 4099)
    end do
    call MPI_Irecv(recvbuf, n, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, requests(1), ierr)
    call MPI_Isend(sendbuf, n, MPI_INTEGER, right, 70 + it, MPI_COMM_WORLD, requests(2), ierr)
    do i = 1, 2
      call MPI_Waitany(2, requests, idx, status, ierr)
      if (idx == 1) results(1) = results(1) + status(MPI_SOURCE) * 1009 + status(MPI_TAG)
    end do
    results(1) = results(1) + sum(int(recvbuf, 8))
    ! Persistent pair, polled with Testsome.
    pout = sendbuf + it
    call MPI_Startall(2, persistent, ierr)
    remaining = 2
    do while (remaining > 0)
      call MPI_Testsome(2, persistent, outcount, indices, statuses, ierr)
      if (outcount /= MPI_UNDEFINED) remaining = remaining - outcount
    end do
    results(2) = results(2) + sum(int(pin, 8))
    ! Sendrecv the other way.
    call MPI_Sendrecv(sendbuf, n, MPI_INTEGER, left, 80, recvbuf, n, MPI_INTEGER, right, 80, &
                      MPI_COMM_WORLD, status, ierr)
    results(3) = results(3) + sum(int(recvbuf, 8))
    ! A message of a length learnt by Probe.
    call MPI_Isend(sendbuf, 1 + mod(rank + it, 40), MPI_INTEGER, right, 90, MPI_COMM_WORLD, req, ierr)
    call MPI_Probe(MPI_ANY_SOURCE, 90, MPI_COMM_WORLD, status, ierr)
    call MPI_Get_count(status, MPI_INTEGER, got, ierr)
    call MPI_Recv(probe_in, got, MPI_INTEGER, status(MPI_SOURCE), 90, MPI_COMM_WORLD, status, ierr)
    call MPI_Wait(req, status, ierr)
    results(4) = results(4) + got * 100003 + sum(int(probe_in(1:got), 8))
    ! A non-blocking reduction, then reductions on a split and duplicated communicator.
    mine = rank * 31 + it
    call MPI_Iallreduce(mine, summed, 1, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD, ireq, ierr)
    call MPI_Wait(ireq, status, ierr)
    call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), rank, half, ierr)
    call MPI_Comm_dup(half, copy, ierr)
    call MPI_Comm_size(copy, hsize, ierr)
    call MPI_Allreduce(mine, hsum, 1, MPI_INTEGER8, MPI_MAX, copy, ierr)
    call MPI_Comm_free(copy, ierr)
    call MPI_Comm_free(half, ierr)
    results(5) = results(5) + summed * 7 + hsum + hsize
  end do
  call MPI_Request_free(persistent(1), ierr)
  call MPI_Request_free(persistent(2), ierr)
  ! Each rank's own file: a blocking write, a non-blocking read.
  write (path, '(a, a, i0, a)') trim(dir), '/unchanged_fortran.', rank, '.bin'
  call MPI_File_open(MPI_COMM_SELF, trim(path), MPI_MODE_CREATE + MPI_MODE_RDWR, MPI_INFO_NULL, fh, ierr)
  offset = 0
  call MPI_File_write_at(fh, offset, sendbuf, n, MPI_INTEGER, status, ierr)
  call MPI_File_iread_at(fh, offset, filebuf, n, MPI_INTEGER, req, ierr)
  call MPI_Wait(req, status, ierr)
  call MPI_File_close(fh, ierr)
  results(6) = sum(int(filebuf, 8)) * 3
  allocate (all(6 * nprocs))
  call MPI_Gather(results, 6, MPI_INTEGER8, all, 6, MPI_INTEGER8, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    do i = 0, nprocs - 1
      print '(a, i0, 6(a, i0))', 'rank ', i, ' wildcard=', all(6 * i + 1), ' persistent=', all(6 * i + 2), &
        ' sendrecv=', all(6 * i + 3), ' probe=', all(6 * i + 4), ' collectives=', all(6 * i + 5), &
        ' mpi_io=', all(6 * i + 6)
    end do
  end if
  deallocate(all)
  call MPI_Finalize(ierr)
end program unchanged_fortran
