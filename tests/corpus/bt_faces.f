c     An ADI step written as older Fortran codes are (fixed form,
c     mpif.h): the faces copied to the neighbours in x and y
c     (MPI_Irecv, MPI_Isend, MPI_Waitall), then an x solve and a y solve
c     that pipeline their lines through the process grid (MPI_Irecv posted
c     before the work, MPI_Wait, MPI_Isend of the result, MPI_Wait of the
c     send before its buffer is reused); the residual every 20 steps.
c     Usage: bt_faces ITERATIONS
      program btlike
      implicit none
      include 'mpif.h'
      integer n, niter, i, j, it, ierr, rank, nprocs, dims(2), px, py
      integer lx, ly, west, east, south, north, req(4)
      integer st(MPI_STATUS_SIZE,4)
      integer rreq, sreq
      parameter (n = 1024)
      double precision u(0:n+1,0:n+1), rhs(0:n+1,0:n+1)
      double precision sbuf(4*n), rbuf(4*n), line(n), rl(n)
      double precision resid, tsum, t0, t1, el, mx
      logical isper(2)
      character*32 arg
      call MPI_Init(ierr)
      call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
      call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
      niter = 100
      if (rank .eq. 0 .and. command_argument_count() .ge. 1) then
         call get_command_argument(1, arg)
         read (arg, *) niter
      endif
      call MPI_Bcast(niter, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
      dims(1) = 0
      dims(2) = 0
      call MPI_Dims_create(nprocs, 2, dims, ierr)
      px = mod(rank, dims(1))
      py = rank / dims(1)
      lx = n / dims(1)
      ly = n / dims(2)
      west = MPI_PROC_NULL
      east = MPI_PROC_NULL
      south = MPI_PROC_NULL
      north = MPI_PROC_NULL
      if (px .gt. 0) west = rank - 1
      if (px .lt. dims(1) - 1) east = rank + 1
      if (py .gt. 0) south = rank - dims(1)
      if (py .lt. dims(2) - 1) north = rank + dims(1)
      do j = 0, ly + 1
         do i = 0, lx + 1
            u(i,j) = sin(0.02d0 * (i + px*lx))
     &           * cos(0.015d0 * (j + py*ly))
            rhs(i,j) = 0d0
         enddo
      enddo
      resid = 0d0
      call MPI_Barrier(MPI_COMM_WORLD, ierr)
      t0 = MPI_Wtime()
      do it = 1, niter
c        copy_faces
         call MPI_Irecv(rbuf(1), ly, MPI_DOUBLE_PRECISION, west, 1,
     &        MPI_COMM_WORLD, req(1), ierr)
         call MPI_Irecv(rbuf(n+1), ly, MPI_DOUBLE_PRECISION, east, 2,
     &        MPI_COMM_WORLD, req(2), ierr)
         do j = 1, ly
            sbuf(j) = u(lx, j)
            sbuf(n+j) = u(1, j)
         enddo
         call MPI_Isend(sbuf(1), ly, MPI_DOUBLE_PRECISION, east, 1,
     &        MPI_COMM_WORLD, req(3), ierr)
         call MPI_Isend(sbuf(n+1), ly, MPI_DOUBLE_PRECISION, west, 2,
     &        MPI_COMM_WORLD, req(4), ierr)
         call MPI_Waitall(4, req, st, ierr)
         if (west .ne. MPI_PROC_NULL) then
            do j = 1, ly
               u(0, j) = rbuf(j)
            enddo
         endif
         if (east .ne. MPI_PROC_NULL) then
            do j = 1, ly
               u(lx+1, j) = rbuf(n+j)
            enddo
         endif
         call MPI_Irecv(rbuf(2*n+1), lx, MPI_DOUBLE_PRECISION, south, 3,
     &        MPI_COMM_WORLD, req(1), ierr)
         call MPI_Irecv(rbuf(3*n+1), lx, MPI_DOUBLE_PRECISION, north, 4,
     &        MPI_COMM_WORLD, req(2), ierr)
         do i = 1, lx
            sbuf(2*n+i) = u(i, ly)
            sbuf(3*n+i) = u(i, 1)
         enddo
         call MPI_Isend(sbuf(2*n+1), lx, MPI_DOUBLE_PRECISION, north, 3,
     &        MPI_COMM_WORLD, req(3), ierr)
         call MPI_Isend(sbuf(3*n+1), lx, MPI_DOUBLE_PRECISION, south, 4,
     &        MPI_COMM_WORLD, req(4), ierr)
         call MPI_Waitall(4, req, st, ierr)
         if (south .ne. MPI_PROC_NULL) then
            do i = 1, lx
               u(i, 0) = rbuf(2*n+i)
            enddo
         endif
         if (north .ne. MPI_PROC_NULL) then
            do i = 1, lx
               u(i, ly+1) = rbuf(3*n+i)
            enddo
         endif
c        compute_rhs
         do j = 1, ly
            do i = 1, lx
               rhs(i,j) = 0.1d0 * (u(i-1,j) + u(i+1,j) + u(i,j-1)
     &              + u(i,j+1) - 4d0 * u(i,j))
            enddo
         enddo
c        x_solve: the line's running sum passed east, row by row
         call MPI_Irecv(rl, ly, MPI_DOUBLE_PRECISION, west, 5,
     &        MPI_COMM_WORLD, rreq, ierr)
         call MPI_Wait(rreq, st, ierr)
         do j = 1, ly
            if (west .eq. MPI_PROC_NULL) rl(j) = 0d0
            do i = 1, lx
               rl(j) = 0.5d0 * rl(j) + rhs(i,j)
               rhs(i,j) = rl(j)
            enddo
            line(j) = rl(j)
         enddo
         call MPI_Isend(line, ly, MPI_DOUBLE_PRECISION, east, 5,
     &        MPI_COMM_WORLD, sreq, ierr)
         call MPI_Wait(sreq, st, ierr)
c        y_solve: the same north through the process columns
         call MPI_Irecv(rl, lx, MPI_DOUBLE_PRECISION, south, 6,
     &        MPI_COMM_WORLD, rreq, ierr)
         call MPI_Wait(rreq, st, ierr)
         do i = 1, lx
            if (south .eq. MPI_PROC_NULL) rl(i) = 0d0
            do j = 1, ly
               rl(i) = 0.5d0 * rl(i) + rhs(i,j)
               rhs(i,j) = rl(i)
            enddo
            line(i) = rl(i)
         enddo
         call MPI_Isend(line, lx, MPI_DOUBLE_PRECISION, north, 6,
     &        MPI_COMM_WORLD, sreq, ierr)
         call MPI_Wait(sreq, st, ierr)
c        add
         do j = 1, ly
            do i = 1, lx
               u(i,j) = u(i,j) + 0.05d0 * rhs(i,j)
            enddo
         enddo
         if (mod(it, 20) .eq. 0) then
            tsum = 0d0
            do j = 1, ly
               do i = 1, lx
                  tsum = tsum + rhs(i,j)**2
               enddo
            enddo
            call MPI_Allreduce(tsum, resid, 1, MPI_DOUBLE_PRECISION,
     &           MPI_SUM, MPI_COMM_WORLD, ierr)
         endif
      enddo
      t1 = MPI_Wtime()
      el = t1 - t0
      call MPI_Reduce(el, mx, 1, MPI_DOUBLE_PRECISION, MPI_MAX, 0,
     &     MPI_COMM_WORLD, ierr)
      if (rank .eq. 0) then
         write (*, '(a,es18.10)') 'result resid ', resid
         write (*, '(a,i0,a,f10.6,a,es14.6,a)') 'loop: ', niter,
     &        ' iterations, ', mx, ' s, ', mx / niter,
     &        ' s per iteration'
      endif
      call MPI_Finalize(ierr)
      end
